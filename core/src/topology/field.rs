//! Prime-field arithmetic for Slim Fly and Galaxy graphs — placeholder until implemented.
