console.log("placeholder")
